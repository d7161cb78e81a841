//go:build !race

package codemode

// raceScale is 1 in a build without the race detector (see race_on.go).
const raceScale = 1
