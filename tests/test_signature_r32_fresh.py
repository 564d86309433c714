"""Round 32's changes: the causes the fresh development samples (tests/triage_corpus/train/) met
that envdoctor did not read, and fixes that could not work. A report reaches its confirmed cause
with a fix naming the knob the confirmed fix turned; look-alikes stay clear."""

from __future__ import annotations

from envdoctor.triage_engine import triage_text


def test_a_job_that_requested_gpus_is_not_told_to_request_them() -> None:
    """ "Request GPUs (--gres=gpu:1)" cannot fix a job whose own batch lines already request one:
    the Slurm prose causes stay quiet then, and still speak for a job that shows no request."""
    symptom = "but in the slurm job torch.cuda.is_available() is False\n"
    requested = [
        "#SBATCH --gres=gpu:1\n#SBATCH -p gpu\n",
        "$ srun --gpus=1 -p a100 python train.py\n",
        "salloc -N 1 --gpus-per-node=4 -t 60\n",
    ]
    for lines in requested:
        ids = [f.id for f in triage_text(lines + symptom).findings]
        assert "cluster.no-gpu-allocated" not in ids, (lines, ids)
    assert any(
        f.id == "cluster.no-gpu-allocated"
        for f in triage_text("#SBATCH -p gpu\n#SBATCH -t 60\n" + symptom).findings
    )
    # a request quoted in prose is no command line of the job (the NoDevFiles explanation of en-0224)
    prose = 'the option "SBATCH --gres=gpu:1" lets SLURM allocate the GPU\nCUDA_VISIBLE_DEVICES=NoDevFiles\n'
    assert triage_text(prose).findings[0].id == "cluster.no-gpu-allocated"
