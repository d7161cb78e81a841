package sandbox

// BwrapArgs is the bubblewrap command line (after "bwrap") that runs
// plan: new namespaces of every kind (the network one only without
// Network), no capabilities, its own session (no terminal to inject
// keystrokes into), and it dies with its parent.
func BwrapArgs(plan Plan) []string {
	args := []string{"--new-session", "--die-with-parent", "--unshare-all"}
	if plan.Network {
		args = append(args, "--share-net")
	}
	args = append(args, "--cap-drop", "ALL", "--proc", "/proc", "--dev", "/dev")
	for _, m := range plan.Mounts {
		switch m.Kind {
		case Symlink:
			args = append(args, "--symlink", m.Source, m.Path)
		case Tmpfs:
			args = append(args, "--tmpfs", m.Path)
		case Bind:
			args = append(args, "--ro-bind", m.Source, m.Path)
		case BindRW:
			args = append(args, "--bind", m.Source, m.Path)
		}
	}
	args = append(args, "--chdir", plan.Dir, "--")
	return append(append(args, plan.Command), plan.Args...)
}
