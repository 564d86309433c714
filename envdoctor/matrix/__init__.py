"""The compatibility matrices' machinery: loading and validating the tables (`loader`), their
compiled cache (`cache`) and updates without a release (`update`). The tables themselves are the
`envdoctor.matrices` data package (matrices/*.toml); questions asked of them are
`envdoctor.queries`."""
