package bundle

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/switchboard-app/switchboard/mcpmanager/config"
)

// platforms are the names manifests use (Node's process.platform).
var platforms = []string{"darwin", "win32", "linux"}

// Platform is this computer's platform as manifests name it.
func Platform() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

// Vars are the values of the manifest's placeholders other than
// ${user_config.KEY}: ${__dirname}, ${HOME}, ${DESKTOP}, ${DOCUMENTS},
// ${DOWNLOADS} and ${pathSeparator} (or ${/}).
type Vars struct {
	Dirname, Home, Desktop, Documents, Downloads string
	Platform                                     string // "" is Platform()
}

// UserVars are this user's folders, with dirname as ${__dirname}.
func UserVars(dirname string) Vars {
	home, _ := os.UserHomeDir()
	return Vars{Dirname: dirname, Home: home, Desktop: filepath.Join(home, "Desktop"),
		Documents: filepath.Join(home, "Documents"), Downloads: filepath.Join(home, "Downloads")}
}

var placeholderRE = regexp.MustCompile(`\$\{([^}]*)\}`)

// substitute replaces the placeholders of s; user gives a user_config
// value (joined, for an option with several values).
func (v Vars) substitute(s string, user func(key string) (string, bool)) string {
	return placeholderRE.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		switch name {
		case "__dirname":
			return v.Dirname
		case "HOME":
			return v.Home
		case "DESKTOP":
			return v.Desktop
		case "DOCUMENTS":
			return v.Documents
		case "DOWNLOADS":
			return v.Downloads
		case "pathSeparator", "/":
			return string(filepath.Separator)
		}
		if key, ok := strings.CutPrefix(name, "user_config."); ok && user != nil {
			if val, ok := user(key); ok {
				return val
			}
		}
		return m // someone else's placeholder (${secret:...}) stays
	})
}

// Values are the user's answers to user_config, by key; an option with
// multiple takes several.
type Values map[string][]string

// Check fills in defaults, and refuses a missing required value, a number
// out of range, a boolean that is not true/false, several values for a
// single option, and a key the manifest does not have.
func (m *Manifest) Check(in Values, vars Vars) (Values, error) {
	out := Values{}
	for k, v := range in {
		if _, ok := m.UserConfig.Lookup(k); !ok {
			return nil, fmt.Errorf("%w: %q is not a setting of %s (it has %s)", ErrUserConfig, k, m.Name, m.keys())
		}
		out[k] = v
	}
	for _, o := range m.UserConfig {
		v := out[o.Key]
		if len(v) == 0 || len(v) == 1 && v[0] == "" {
			v = o.Defaults(vars)
		}
		if len(v) == 0 {
			if o.Required {
				return nil, fmt.Errorf("%w: %s (%s) is required: enter it in the form, or pass --set %s=VALUE", ErrUserConfig, o.Title, o.Key, o.Key)
			}
			continue
		}
		if len(v) > 1 && !o.Multiple {
			return nil, fmt.Errorf("%w: %s (%s) takes one value, got %d", ErrUserConfig, o.Title, o.Key, len(v))
		}
		for _, x := range v {
			switch o.Type {
			case TypeNumber:
				f, err := strconv.ParseFloat(x, 64)
				if err != nil {
					return nil, fmt.Errorf("%w: %s (%s): %q is not a number", ErrUserConfig, o.Title, o.Key, x)
				}
				if o.Min != nil && f < *o.Min || o.Max != nil && f > *o.Max {
					return nil, fmt.Errorf("%w: %s (%s): %v is outside %s", ErrUserConfig, o.Title, o.Key, x, rangeText(o))
				}
			case TypeBoolean:
				if x != "true" && x != "false" {
					return nil, fmt.Errorf("%w: %s (%s): %q must be true or false", ErrUserConfig, o.Title, o.Key, x)
				}
			}
		}
		out[o.Key] = v
	}
	return out, nil
}

func rangeText(o Option) string {
	switch {
	case o.Min != nil && o.Max != nil:
		return fmt.Sprintf("%s–%s", formatNumber(*o.Min), formatNumber(*o.Max))
	case o.Min != nil:
		return "≥ " + formatNumber(*o.Min)
	}
	return "≤ " + formatNumber(*o.Max)
}

func (m *Manifest) keys() string {
	var ks []string
	for _, o := range m.UserConfig {
		ks = append(ks, o.Key)
	}
	if len(ks) == 0 {
		return "no settings"
	}
	return strings.Join(ks, ", ")
}

// Config is the server's command line on vars.Platform, its
// platform_overrides applied (a uv bundle without one runs
// "uv run --directory DIR ENTRY").
func (m *Manifest) Config(platform string) MCPConfig {
	if platform == "" {
		platform = Platform()
	}
	var c MCPConfig
	if m.Server.MCPConfig != nil {
		c = *m.Server.MCPConfig
	} else { // uv: the host runs it
		c = MCPConfig{Command: "uv", Args: []string{"run", "--directory", "${__dirname}", "${__dirname}/" + m.Server.EntryPoint}}
	}
	if o, ok := c.PlatformOverrides[platform]; ok {
		if o.Command != "" {
			c.Command = o.Command
		}
		if o.Args != nil {
			c.Args = o.Args
		}
		if len(o.Env) > 0 {
			env := map[string]string{}
			for k, v := range c.Env {
				env[k] = v
			}
			for k, v := range o.Env {
				env[k] = v
			}
			c.Env = env
		}
	}
	c.PlatformOverrides = nil
	return c
}

// Entry is the server entry that runs the bundle unpacked in vars.Dirname
// with the checked values: every placeholder substituted, an argument that
// is exactly one ${user_config.KEY} of several values expanded into one
// argument each, a relative binary command made absolute. It is named
// after the manifest.
func (m *Manifest) Entry(vars Vars, values Values) config.Server {
	c := m.Config(vars.Platform)
	user := func(key string) (string, bool) {
		v, ok := values[key]
		if !ok {
			return "", true // unset optional: empty, as Claude Desktop does
		}
		return strings.Join(v, string(os.PathListSeparator)), true
	}
	s := config.Server{Name: m.Name, Transport: config.Stdio, Env: map[string]string{}}
	s.Command = vars.substitute(c.Command, user)
	if m.Server.Type == Binary && !filepath.IsAbs(s.Command) && strings.ContainsAny(s.Command, `/\`) {
		s.Command = filepath.Join(vars.Dirname, filepath.FromSlash(s.Command))
	}
	if m.Server.Type == Binary && runtime.GOOS == "windows" && filepath.Ext(s.Command) == "" {
		s.Command += ".exe"
	}
	for _, a := range c.Args {
		if key, ok := soleUserConfig(a); ok {
			s.Args = append(s.Args, values[key]...)
			continue
		}
		s.Args = append(s.Args, vars.substitute(a, user))
	}
	for k, v := range c.Env {
		s.Env[k] = vars.substitute(v, user)
	}
	s.Cwd = vars.Dirname
	return s
}

// soleUserConfig reports whether a is exactly "${user_config.KEY}".
func soleUserConfig(a string) (string, bool) {
	if !strings.HasPrefix(a, "${user_config.") || !strings.HasSuffix(a, "}") {
		return "", false
	}
	key := a[len("${user_config.") : len(a)-1]
	return key, !strings.ContainsAny(key, "${}")
}
