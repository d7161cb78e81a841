package gui

import (
	"bytes"
	"golang.org/x/sys/unix"
	"os"
	"strings"
	"testing"
	"unsafe"
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

// TestReleasePagesOut: release takes a clean file's pages out of the page
// cache, not only out of the mapping, so what runs again is read back in
// read-around windows (see releaseStartupPages).
func TestReleasePagesOut(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "pages")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const size = 8 << 20
	if _, err := f.Write(bytes.Repeat([]byte("switchboard "), size/12+1)); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil { // clean: a dirty page is not paged out
		t.Fatal(err)
	}
	b, err := unix.Mmap(int(f.Fd()), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(b)
	sum := 0
	for i := 0; i < size; i += 4096 {
		sum += int(b[i])
	}
	cached := func() int {
		vec := make([]byte, size/4096)
		if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), size, uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
			t.Fatal(errno)
		}
		n := 0
		for _, v := range vec {
			n += int(v & 1)
		}
		return n
	}
	before := cached()
	if err := release(uintptr(unsafe.Pointer(&b[0])), size); err != nil {
		t.Fatal(err)
	}
	after := cached()
	t.Logf("pages in the page cache: %d before, %d after (of %d; sum %d)", before, after, size/4096, sum)
	if before < size/4096/2 || after > before/4 {
		t.Errorf("pages in the page cache: %d before, %d after release; want most of them gone", before, after)
	}
	if b[size-1] == 0 { // read back from the file
		t.Error("the mapping reads zero after release")
	}
}
