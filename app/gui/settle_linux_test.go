package gui

import (
	"os"
	"strings"
	"testing"
)

const smapsSample = `00400000-00408000 r--p 00000000 fe:00 99 /opt/switchboard/switchboard
Size:                 32 kB
Rss:                  32 kB
Anonymous:             0 kB
00408000-02a6d000 r-xp 00008000 fe:00 99 /opt/switchboard/switchboard
Rss:               38180 kB
Anonymous:             0 kB
05f3c000-05f3d000 r--p 05b3b000 fe:00 99 /opt/switchboard/switchboard
Rss:                   4 kB
Anonymous:             4 kB
05f3d000-06200000 rw-p 05b3c000 fe:00 99 /opt/switchboard/switchboard
Rss:                1812 kB
Anonymous:          1200 kB
7f0000000000-7f0000100000 r-xp 00000000 fe:00 12 /usr/lib/libwebkit2gtk-4.1.so.0
Rss:                 900 kB
Anonymous:             0 kB
7f0000200000-7f0000300000 rw-p 00000000 00:00 0
Rss:                 100 kB
Anonymous:           100 kB
VmFlags: rd wr mr mw me ac
`

func TestReleasableIsTheBinarysReadOnlyFilePages(t *testing.T) {
	maps, err := parseSmaps(strings.NewReader(smapsSample))
	if err != nil {
		t.Fatal(err)
	}
	if len(maps) != 6 {
		t.Fatalf("parsed %d mappings, want 6: %+v", len(maps), maps)
	}
	got := releasable(maps, "/opt/switchboard/switchboard")
	// The relocated read-only data (copied pages) and the writable data stay;
	// the libraries are not the binary's.
	want := []uintptr{0x400000, 0x408000}
	if len(got) != len(want) {
		t.Fatalf("releasable = %+v, want the mappings at %x", got, want)
	}
	for i, m := range got {
		if m.start != want[i] || m.anonKB != 0 || strings.Contains(m.perms, "w") {
			t.Errorf("releasable[%d] = %+v, want the read-only mapping at %x", i, m, want[i])
		}
	}
	if got[1].rssKB != 38180 || got[1].end != 0x2a6d000 {
		t.Errorf("text mapping = %+v", got[1])
	}
}

// The test binary gives back its own start-up pages and runs on: the code
// and read-only data come back from the page cache.
func TestReleaseStartupPagesKeepsTheProcessRunning(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	resident := func() int64 {
		f, err := os.Open("/proc/self/smaps")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		maps, err := parseSmaps(f)
		if err != nil {
			t.Fatal(err)
		}
		var kb int64
		for _, m := range releasable(maps, exe) {
			kb += m.rssKB
		}
		return kb
	}
	before := resident()
	kb, err := releaseStartupPages()
	if err != nil {
		t.Fatal(err)
	}
	after := resident()
	t.Logf("resident read-only pages of %s: %d kB before, %d kB released, %d kB after", exe, before, kb, after)
	if kb <= 0 || after >= before {
		t.Errorf("released %d kB; resident %d kB before and %d kB after: want fewer after", kb, before, after)
	}
	// Code and read-only data read back: a map of strings and a sort, which
	// touch runtime code and tables not touched since.
	m := map[string]int{}
	for i, s := range strings.Fields(smapsSample) {
		m[s] = i
	}
	if len(m) == 0 {
		t.Fatal("no fields")
	}
}
