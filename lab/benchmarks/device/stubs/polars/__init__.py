"""A stand-in for polars on the lent GPU machine, whose image lacks it (its wheels weigh 50 MB, most
of what the device tool may carry). Ultralytics' trainer only reads its results.csv back with it,
inside a try, for the checkpoints' metadata; with plots off nothing else imports it in training."""


def read_csv(*args, **kwargs):
    raise RuntimeError("polars is not installed on this machine (lab/benchmarks/device/stubs stands in for it)")
