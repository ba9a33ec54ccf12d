api_version = 1
include "/etc/passwd"
