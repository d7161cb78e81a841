package gitignore_test

import (
	"fmt"

	"github.com/switchboard-app/switchboard/builtin/workspace/gitignore"
)

func Example() {
	m := gitignore.Matcher{}.With(gitignore.Parse("", []byte("*.log\nbuild/\n")))
	m = m.With(gitignore.Parse("web", []byte("!debug.log\n")))
	fmt.Println(m.Ignored("app.log", false), m.Ignored("web/debug.log", false), m.Ignored("build", true), m.Ignored("src/main.go", false))
	fmt.Println(gitignore.Match("*_test.go", "pkg/a_test.go", false), gitignore.Match("cmd/*/main.go", "cmd/x/main.go", false))
	// Output:
	// true false true false
	// true true
}
