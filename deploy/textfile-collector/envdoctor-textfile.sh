#!/bin/sh
# node_exporter textfile collector: write envdoctor's metrics atomically into the collector's
# folder (node_exporter --collector.textfile.directory=DIR reads DIR/*.prom).
#
#   deploy/textfile-collector/envdoctor-textfile.sh [DIR]   # default /var/lib/node_exporter/textfile_collector
#   cron: */15 * * * * root /usr/local/bin/envdoctor-textfile.sh
#
# The metrics go to DIR/envdoctor.prom.tmp (not read: it does not end in .prom) and are renamed
# over DIR/envdoctor.prom once complete. envdoctor exits 1 when it found errors; that output is
# complete and published too. Any other exit (usage, internal error) keeps the previous file, so
# node_textfile_mtime_seconds shows the metrics going stale. ENVDOCTOR overrides the command.
envdoctor=${ENVDOCTOR:-envdoctor}
dir=${1:-${TEXTFILE_DIR:-/var/lib/node_exporter/textfile_collector}}
[ -d "$dir" ] || { echo "envdoctor-textfile: $dir is not a folder" >&2; exit 2; }
"$envdoctor" check --format prometheus --timeout "${ENVDOCTOR_TIMEOUT:-30}" > "$dir/envdoctor.prom.tmp"
status=$?
if [ "$status" -le 1 ]; then
  mv "$dir/envdoctor.prom.tmp" "$dir/envdoctor.prom" && exit 0
fi
rm -f "$dir/envdoctor.prom.tmp"
echo "envdoctor-textfile: envdoctor check exited $status; $dir/envdoctor.prom left as it was" >&2
exit "$status"
