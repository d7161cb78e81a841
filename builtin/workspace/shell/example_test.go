//go:build unix

package shell_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/switchboard-app/switchboard/builtin/workspace/shell"
)

func Example() {
	dir, _ := os.MkdirTemp("", "shell")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	pool := shell.NewPool(shell.Options{Dir: dir, Env: shell.MinimalEnv("")})
	defer pool.Close(ctx)
	s, err := pool.Session("default")
	if err != nil {
		log.Fatal(err)
	}
	for _, cmd := range []string{"mkdir -p src && cd src", "printf '\\033[32mok\\033[0m\\n'; basename \"$PWD\"; false"} {
		res, err := s.Exec(ctx, cmd, 10*time.Second)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%q exit %d\n", res.Output, res.ExitCode)
	}
	// Output:
	// "" exit 0
	// "ok\nsrc\n" exit 1
}
