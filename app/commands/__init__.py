"""One module per `jingsuan` subcommand; each has `add_arguments(parser)` and `run(args) -> int`."""
