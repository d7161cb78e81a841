package process

import (
	"slices"
	"strings"
)

// KeepEnv returns the NAME=value entries of env whose name matches one of
// patterns: a variable's name, or a prefix ending in "*" ("LC_*").
func KeepEnv(env, patterns []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return !envMatch(kv, patterns) })
}

// DropEnv returns the entries of env whose name matches none of patterns
// (as KeepEnv reads them).
func DropEnv(env, patterns []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return envMatch(kv, patterns) })
}

func envMatch(kv string, patterns []string) bool {
	name, _, _ := strings.Cut(kv, "=")
	for _, p := range patterns {
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(name, prefix) || p == name {
			return true
		}
	}
	return false
}
