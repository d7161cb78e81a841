package host

import (
	"context"
	"fmt"
	"os"

	"github.com/switchboard-app/switchboard/app/secrets"
	"github.com/switchboard-app/switchboard/mcpmanager/config"
	"github.com/switchboard-app/switchboard/mcpmanager/library"
)

// Discover surveys this machine's MCP configs of other apps (Claude
// Desktop, Cursor, VS Code, …): what the welcome page, the import wizard
// and 'servers discover' show, so the three agree on every count. It reads
// other apps' files only: no Host is needed.
func Discover(ctx context.Context) []config.Found {
	return config.Survey(ctx, config.SystemEnv())
}

// ReadDiscovered returns the text of a config Discover reports (and only
// of those), bounded by config.MaxConfigSize.
func (s *Servers) ReadDiscovered(path string) (string, error) {
	known := false
	for _, c := range config.Discover(config.SystemEnv()) {
		known = known || c.Path == path
	}
	if !known {
		return "", fmt.Errorf("%s is not one of the discovered MCP configs; paste it or choose it with the file picker", path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.Size() > config.MaxConfigSize {
		return "", fmt.Errorf("%s is %d bytes; an MCP config should be far smaller", path, fi.Size())
	}
	b, err := os.ReadFile(path)
	return string(b), err
}

// Runnable are config.json's servers as they run: templates left out, the
// active profile's overrides applied. A server whose override is wrong is
// left out too, with its problem in skipped.
func (s *Servers) Runnable() (servers []config.Server, skipped []error, err error) {
	cfg, err := s.h.Config()
	if err != nil {
		return nil, nil, err
	}
	profile, err := library.ActiveProfile(cfg.Settings)
	if err != nil {
		return nil, nil, err
	}
	run, problems := library.Prepare(cfg.Servers, profile)
	return withoutProblems(run, problems)
}

// ReadFile reads the servers of another mcpServers file (a CLI --config)
// instead of config.json's: inputs fill VS Code's ${input:ID} placeholders.
// An entry that cannot run is left out, with its problem in skipped; a
// file that cannot be read or parsed is the error.
func (s *Servers) ReadFile(ctx context.Context, file string, inputs map[string]string) (servers []config.Server, skipped []error, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", file, err)
	}
	f, err := config.ParseContext(ctx, file, data)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range f.Entries {
		if !e.Valid() {
			for _, p := range e.Problems {
				skipped = append(skipped, fmt.Errorf("%s: %s", file, p))
			}
		}
	}
	if len(f.InputIDs()) > 0 {
		if f, err = f.WithInputs(inputs); err != nil {
			return nil, skipped, err
		}
	}
	run, problems := library.Prepare(f.Servers, "")
	servers, more, _ := withoutProblems(run, problems)
	return servers, append(skipped, more...), nil
}

// withoutProblems drops the servers whose profile override is wrong.
func withoutProblems(servers []config.Server, problems map[string]error) ([]config.Server, []error, error) {
	var skipped []error
	out := servers[:0:0]
	for _, srv := range servers {
		if err := problems[srv.Name]; err != nil {
			skipped = append(skipped, err)
			continue
		}
		out = append(out, srv)
	}
	return out, skipped, nil
}

// Export is config.json's servers as a shareable mcpServers file: every
// secret, and every value kept in plaintext by choice, stays a
// ${secret:NAME} placeholder.
func (s *Servers) Export() ([]byte, error) {
	cfg, err := s.h.Config()
	if err != nil {
		return nil, err
	}
	shared := &config.Config{}
	for _, srv := range cfg.Servers {
		clean, _ := secrets.Extract(srv, nil)
		shared.Servers = append(shared.Servers, clean)
	}
	return shared.MarshalJSON()
}
