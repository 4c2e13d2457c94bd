"""Strings of the teacher/student roles, the disk budget and the rate limits (ui/roles.py,
ui/quota.py, the Train page's class controls)."""
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
ZH = {
    "sign_in_title": "教师登录",
    "token": "教师口令",
    "token_help": "服务器启动时设定的口令（ATTENTION_LAB_TEACHER_TOKEN）。学生不需要它：学生可以在每个模型上"
                  "查看注意力、解码和寻找注意力头。",
    "sign_in": "登录",
    "sign_out": "退出登录",
    "signed_in": "已以教师身份登录：你可以为所有人启动、停止和删除训练，并上传文件。",
    "wrong": "这不是教师口令。",
    "wrong_wait": "这不是教师口令。请 {s} 秒后再试。",
    "locked": "错误口令过多：请 {s} 秒后再试。",
    "refused": "已拒绝：{reason}。",
    "student_no_start": "在这台服务器上，训练由教师启动。你可以在下面观看每一次训练并打开它的检查点。",
    "delete": "删除训练",
    "delete_help": "从服务器上删除这次训练的文件夹（检查点和指标）。",
    "deleted": "训练 {name} 已删除。",
    "audit": "审计日志（谁做了什么）",
    "audit_empty": "还没有记录。",
    "rate_limited": "短时间内{what}太多：请 {s} 秒后再试。",
    "what_sweep": "完整的注意力头扫描",
    "what_ablate_all": "对每个头的消融",
    "what_wide_beam": "高开销的解码（宽束或长文本）",
    "disk_full": "服务器的磁盘额度（训练和上传共 {mb} MB）已满：{reason}",
    "upload_cap": "你在本次会话中已上传 {n} 个文件，已达上限。请让教师上传更多。",
    "sb_title": "你自己的小训练",
    "sb_caption": "教师允许学生训练：{preset} 模型，最多 {steps} 步，每人一次一个，排队进行（教师的训练优先）。",
    "sb_task": "任务",
    "sb_go": "排队开始我的训练",
    "sb_place": "你的训练 {name} 在队列中排第 {n} 位；训练位空出时自动开始。",
    "sb_off": "学生训练",
    "sb_off_help": "允许学生排队进行自己的小训练（使用下面的预设和步数上限）。",
    "sb_steps": "每次学生训练的最多步数",
    "token_too_short": "教师口令（{env}）短于 {n} 个字符，太容易被猜中：在换用更长的口令重新启动之前，"
                       "本服务器拒绝提供服务。可以这样生成一个强口令：",
    "open_server": "本服务器没有设置教师口令（{env}）：任何能打开本页面的人都可以启动、停止和删除训练，"
                   "也可以上传文件。服务器的管理者应在给全班使用之前设置口令并重新启动。",
}
