package ratelimit

import "time"

// Bucket is a token bucket: it refills at Rate tokens per second up to Burst.
type Bucket struct {
	Rate  float64
	Burst float64
	level float64
	last  time.Time
}

// Allow takes one token if one is available.
func (b *Bucket) Allow(now time.Time) bool {
	b.level = min(b.Burst, b.level+now.Sub(b.last).Seconds()*b.Rate)
	b.last = now
	if b.level < 1 {
		return false
	}
	b.level--
	return true
}
