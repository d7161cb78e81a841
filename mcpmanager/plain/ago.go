package plain

import (
	"fmt"
	"time"
)

// Ago says a duration the way people say how long ago something was, to
// the largest whole unit: "40 seconds", "1 minute", "3 hours", "2 days".
func Ago(d time.Duration) string {
	unit := func(n int64, word string) string {
		if n == 1 {
			return "1 " + word
		}
		return fmt.Sprintf("%d %ss", n, word)
	}
	switch {
	case d < time.Minute:
		return unit(max(int64(d/time.Second), 0), "second")
	case d < time.Hour:
		return unit(int64(d/time.Minute), "minute")
	case d < 48*time.Hour:
		return unit(int64(d/time.Hour), "hour")
	}
	return unit(int64(d/(24*time.Hour)), "day")
}
