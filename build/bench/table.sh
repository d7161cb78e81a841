#!/bin/sh
# table.sh FILE — merge the markdown tables that the benchmark packages of
# 'make bench' appended to FILE (each writes a header, its rows and a
# machine line) into one table: the header once, every row in run order,
# then the packages' notes.
set -eu
awk '
/^\| measure \|/ { if (!header++) print; next }
/^\|---/         { if (!rule++) print; next }
/^\| /           { print; next }
NF               { notes[++n] = $0 }
END {
	if (!header) { print "table.sh: no benchmark table in the input" > "/dev/stderr"; exit 1 }
	if (n) print ""
	for (i = 1; i <= n; i++) print notes[i]
}
' "$1"
