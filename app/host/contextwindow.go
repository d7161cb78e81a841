package host

import (
	"sync"
	"time"
)

// How long a provider's model list is trusted for context windows, and
// how long one that could not be listed is not asked again (a turn must
// not wait for a provider that is down at every step).
var (
	modelListTTL     = 10 * time.Minute
	modelListRetry   = time.Minute
	modelListTimeout = 2 * time.Second
	// modelListMiss: a model the list did not have is asked for again
	// after this long, not after modelListTTL.
	modelListMiss = 5 * time.Second
)

type modelList struct {
	at      time.Time
	windows map[string]int // model ID → context window (0: not said)
	failed  bool
}

var modelLists sync.Map // provider name + base URL → modelList
