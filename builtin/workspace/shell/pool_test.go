//go:build linux

package shell

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

func TestPool(t *testing.T) {
	ms := MaxSessions
	MaxSessions = 2
	t.Cleanup(func() { MaxSessions = ms })
	p := NewPool(Options{Dir: t.TempDir()})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_ = p.Close(ctx)
	})

	def, err := p.Session("")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := p.Session(DefaultSession); again != def || def.Name() != "default" {
		t.Fatal(`"" and "default" are different sessions`)
	}
	for _, bad := range []string{"../x", "a b", "-x", "x\x00", string(make([]byte, 65))} {
		if _, err := p.Session(bad); !errors.Is(err, ErrBadName) {
			t.Errorf("Session(%q) err = %v", bad, err)
		}
	}
	build, err := p.Session("build.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Session("third"); !errors.Is(err, ErrTooManySessions) {
		t.Fatalf("third session: %v", err)
	}
	infos := p.Sessions()
	if len(infos) != 2 || infos[0].Name != "build.1" || infos[1].Name != "default" ||
		infos[0].PID != build.PID() || infos[0].PID == 0 || infos[1].Running {
		t.Fatalf("Sessions() = %+v", infos)
	}
	pids := []int{def.PID(), build.PID()}
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if !gone(pid) {
			t.Errorf("shell %d survived Pool.Close", pid)
		}
	}
	if _, err := p.Session("default"); !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
}

func TestMinimalEnv(t *testing.T) {
	t.Setenv("SECRET_TOKEN", "x")
	env := MinimalEnv("/opt/bin")
	if envValue(env, "PATH") != "/opt/bin" || envValue(env, "TERM") != "xterm-256color" || envValue(env, "SECRET_TOKEN") != "" {
		t.Fatalf("env = %v", env)
	}
	if home, _ := os.UserHomeDir(); envValue(env, "HOME") != home {
		t.Fatalf("HOME = %q", envValue(env, "HOME"))
	}
	if got := envValue(withEnv(env, "PATH", "/x"), "PATH"); got != "/x" {
		t.Fatalf("withEnv PATH = %q", got)
	}
}
