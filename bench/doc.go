// Package bench holds the product's side-by-side benchmarks: each row of
// 'make bench' runs Switchboard and a baseline in the same run and prints
// their ratio (BENCHMARKS.md keeps the latest table). They measure the
// built product from outside — the manager through its exported API, the
// production binary's 'serve' and window under Xvfb, the packages 'make
// package' wrote — so they live beside the code they measure no more than
// an e2e test does, and only use what other packages export.
//
// The tests carry the build tag bench, so 'go test ./...' skips them. Run
// them through make (it builds the app and packages and provides an X
// display):
//
//	make bench
//
// or, with build/bin/switchboard built and a display:
//
//	xvfb-run -a go test -tags bench -run TestBenchTable -v ./bench/
//
// BENCH_ONLY=serve,window runs some sections; BENCH_DAY_TURNS=100 shortens
// the day of use. The window's automation scripts are in
// testdata/automation. Rows are appended to $BENCH_OUT as a markdown table
// (header, rows, machine line); build/bench/table.sh merges the tables of
// several packages into one.
//
// This file has no build tag so the folder is a package 'go list ./...'
// and 'go vet' see.
package bench
