package toolcheck

// CheckText returns what looks like hidden instructions in s, a text the
// model reads that is not a tool definition (what an MCP App asks the
// model to know: ui/update-model-context); where names s in the findings.
// The same rules as Check's apply, not its length rule: the caller bounds
// such text itself.
func CheckText(where, s string) []Finding {
	return checkText(text{where, s})
}
