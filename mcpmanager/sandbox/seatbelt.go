package sandbox

import (
	"fmt"
	"strings"
)

// Profile is the macOS sandbox-exec (Seatbelt) profile with plan's rules:
// everything denied, then reading the mounts, writing the read-write ones
// (the private home and temp are read-write folders of their own, as
// Plan.Mounts says on macOS), running programs, and the network only when
// plan.Network.
func Profile(plan Plan) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString(";; processes: its own children, signals among them, system information\n")
	b.WriteString("(allow process-exec process-fork)\n(allow signal (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read)\n(allow mach-lookup)\n(allow ipc-posix-shm)\n")
	b.WriteString(";; metadata of any path (realpath walks its parents); contents only below\n")
	b.WriteString("(allow file-read-metadata)\n")
	b.WriteString("(allow file-read* (literal \"/\"))\n")
	b.WriteString("(allow file-read* file-write* (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/random\") (literal \"/dev/urandom\") (literal \"/dev/tty\") (subpath \"/dev/fd\"))\n")
	for _, m := range plan.Mounts {
		var rule string
		switch m.Kind {
		case Symlink:
			rule = "(allow file-read* (literal %s))"
		case Bind:
			rule = "(allow file-read* (subpath %s))"
		case BindRW, Tmpfs:
			rule = "(allow file-read* file-write* (subpath %s))"
		}
		fmt.Fprintf(&b, ";; %s\n"+rule+"\n", m.Why, sbString(m.Path))
	}
	if plan.Network {
		b.WriteString(";; network: allowed by the server's entry\n(allow network*)\n(allow system-socket)\n")
	} else {
		b.WriteString(";; network: none (not even Unix sockets such as an ssh-agent's)\n")
	}
	return b.String()
}

// sbString quotes s as a Seatbelt (Scheme) string.
func sbString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
