//go:build bench

package chat_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-app/switchboard/app/chat"
)

// TestBenchTableCodeMode is the code mode row: each task of the suite
// (codemode_tasks_test.go) against the real npm memory and filesystem
// servers, by a scripted model in direct mode and in code mode — the
// tokens sent to the model and the turn's wall time, per task and in all.
func TestBenchTableCodeMode(t *testing.T) {
	srv := newTaskServers(t)
	tasks := srv.tasks(t)
	var out strings.Builder
	fmt.Fprintf(&out, "\n| code mode task (real npm servers, scripted model) | tokens code / direct | ratio | wall time code / direct | target |\n|---|---|---|---|---|\n")
	var sumCode, sumDirect int
	var wallCode, wallDirect time.Duration
	worst := 0.0
	for i, tk := range tasks {
		rd, direct, td := runTask(t, srv, i, chat.ToolsDirect)
		rc, code, tc := runTask(t, srv, i, chat.ToolsCode)
		if fmt.Sprint(rd) != fmt.Sprint(rc) {
			t.Errorf("%s: direct %v, code %v", tk.name, rd, rc)
		}
		ratio := float64(code) / float64(direct)
		worst = max(worst, ratio)
		sumCode, sumDirect, wallCode, wallDirect = sumCode+code, sumDirect+direct, wallCode+tc, wallDirect+td
		fmt.Fprintf(&out, "| %s | %d / %d | %.2f× | %s / %s | ≤ 0.2× |\n", tk.name, code, direct, ratio, tc.Round(time.Millisecond), td.Round(time.Millisecond))
	}
	fmt.Fprintf(&out, "| all %d tasks | %d / %d | %.2f× | %s / %s | ≤ 0.2× |\n", len(tasks), sumCode, sumDirect,
		float64(sumCode)/float64(sumDirect), wallCode.Round(time.Millisecond), wallDirect.Round(time.Millisecond))
	fmt.Fprintf(&out, "\ncode mode rows: tokens = request bytes / 4; worst task %.2f×; %s/%s, %d CPUs, %s\n", worst, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Print(out.String())
	if f := float64(sumCode) / float64(sumDirect); f > 0.2 {
		t.Errorf("code mode sent %.2f× the tokens of direct mode over the suite, want ≤ 0.2×", f)
	}
	if path := os.Getenv("BENCH_OUT"); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(out.String()); err != nil {
			t.Fatal(err)
		}
	}
}
