"""The class server's operations on disk: run folders, the run queue, the disk budget,
the audit log, uploads, model cards and conversion of outside checkpoints."""
