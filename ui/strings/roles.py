"""Strings of the teacher/student roles, the disk budget and the rate limits (ui/serving/roles.py,
ui/serving/quota.py, the Train page's class controls)."""
EN = {
    "sign_in_title": "Teacher sign-in",
    "token": "Teacher token",
    "token_help": "The token the server was started with (ATTENTION_LAB_TEACHER_TOKEN). "
                  "Students do not need it: they can inspect, decode and find heads on every model.",
    "sign_in": "Sign in",
    "sign_out": "Sign out",
    "signed_in": "Signed in as the teacher: you start, stop and delete runs and upload for "
                 "everyone.",
    "wrong": "That is not the teacher token.",
    "wrong_wait": "That is not the teacher token. Try again in {s} s.",
    "locked": "Too many wrong tokens: try again in {s} s.",
    "refused": "Refused: {reason}.",
    "student_no_start": "Training runs are started by the teacher on this server. You can watch "
                        "every run below and open its checkpoints.",
    "delete": "Delete run",
    "delete_help": "Remove this run's folder (its checkpoints and metrics) from the server.",
    "deleted": "Run {name} deleted.",
    "audit": "Audit log (who did what)",
    "audit_empty": "Nothing recorded yet.",
    "rate_limited": "Too many {what} in a short time: try again in {s} s.",
    "what_sweep": "full head-finder sweeps",
    "what_ablate_all": "ablations over every head",
    "what_wide_beam": "costly decodings (wide beams or long texts)",
    "disk_full": "The server's disk budget ({mb} MB for runs and uploads) is full: {reason}",
    "upload_cap": "You have uploaded {n} files in this session, the most allowed. Ask the "
                  "teacher to upload more.",
    "sb_title": "Your own small run",
    "sb_caption": "The teacher lets students train: a {preset} model for at most {steps} steps, "
                  "one run at a time, in a queue (the teacher's runs first).",
    "sb_task": "Task",
    "sb_go": "Queue my run",
    "sb_place": "Your run {name} is number {n} in the queue; it starts when the training slot "
                "frees.",
    "sb_off": "Student runs",
    "sb_off_help": "Let students queue small runs of their own (the preset and step cap below).",
    "sb_steps": "Steps per student run (at most)",
    "token_too_short": "The teacher token ({env}) is shorter than {n} characters, too easy to "
                       "guess: this server refuses to serve until it is started with a longer "
                       "one. Make a strong one with:",
    "open_server": "This server has no teacher token ({env}): anyone who can open this page may "
                   "start, stop and delete training runs and upload files. Whoever runs it should "
                   "restart it with a token before serving a class.",
}
