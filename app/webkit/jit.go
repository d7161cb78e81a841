package webkit

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// JIT tiers JavaScriptCore may use in the window's web process, from the
// most memory to the least. Each tier a web process compiles in keeps its
// code and the profiles that feed it for as long as the process lives.
const (
	// JITFull is WebKit's default: the baseline JIT, then the optimising
	// DFG and FTL tiers for code that runs hot.
	JITFull = "full"
	// JITBaseline stops at the baseline JIT (no DFG, so no FTL). The
	// default: after 1,000 chat turns the web process held 49 MB less
	// (165.6 against 214.3 MB PSS) for turns about a tenth slower
	// (BENCHMARKS.md).
	JITBaseline = "baseline"
	// JITOff runs JavaScript in the interpreter only: 73 MB less than
	// JITFull after 1,000 turns, but late turns took 138 against 86 ms. The default with
	// SWITCHBOARD_WEBKIT_MEMORY=lean, which asks for memory before speed.
	JITOff = "off"
)

// jitOption is the JavaScriptCore option each tier sets to false in the
// environment the web process inherits: JavaScriptCore reads its options
// from JSC_<name> variables when it starts (release builds included).
// JITFull sets none.
var jitOption = map[string]string{
	JITBaseline: "JSC_useDFGJIT",
	JITOff:      "JSC_useJIT",
}

// LimitJIT chooses the JIT tiers of the web process WebKit will start for
// the window and sets them in this process's environment, which the web
// process inherits; it must run before the window is created. The tier is
// SWITCHBOARD_WEBKIT_JIT's (full, baseline or off) when set; otherwise off
// when SWITCHBOARD_WEBKIT_MEMORY asks for a lean web process, and baseline
// else. A JSC_use*JIT variable the user set wins over all of this: the
// environment is left as it is and the tier reported is "user". Elsewhere
// than WebKitGTK it changes nothing and returns errors.ErrUnsupported.
//
//	tier, err := webkit.LimitJIT() // before wails.Run
func LimitJIT() (string, error) {
	if !webKitGTK {
		return "", errors.ErrUnsupported
	}
	tier, err := jitTier(os.Getenv, os.Environ())
	if err != nil || tier == "user" {
		return tier, err
	}
	if name, ok := jitOption[tier]; ok {
		if err := os.Setenv(name, "false"); err != nil {
			return "", fmt.Errorf("web view: set %s: %w", name, err)
		}
	}
	return tier, nil
}

// jitTier decides LimitJIT's tier from the environment.
func jitTier(getenv func(string) string, environ []string) (string, error) {
	for _, kv := range environ {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "JSC_use") && strings.HasSuffix(name, "JIT") {
			return "user", nil
		}
	}
	switch t := getenv("SWITCHBOARD_WEBKIT_JIT"); t {
	case JITFull, JITBaseline, JITOff:
		return t, nil
	case "":
	default:
		return "", fmt.Errorf("SWITCHBOARD_WEBKIT_JIT=%q: use %s, %s or %s", t, JITFull, JITBaseline, JITOff)
	}
	if leanAsked(getenv("SWITCHBOARD_WEBKIT_MEMORY")) {
		return JITOff, nil
	}
	return JITBaseline, nil
}
