//go:build race

package codemode

// raceScale multiplies the script's memory budget in a build with the race
// detector, whose shadow memory grows with the heap (about four times a
// heap's size) and counts against the operating system's limit too: the
// tests, which run with -race, then meet the limits for the same reasons a
// user's build does.
const raceScale = 4
