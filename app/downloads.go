package app

import (
	"time"
)

// DownloadTimeoutSeconds is how long an npx, uvx or docker server's package
// download may take before its first start (Settings → Servers).
func (a *SettingsPage) DownloadTimeoutSeconds() (int, error) {
	d, err := a.h.Downloads.Timeout()
	return int(d / time.Second), err
}

// SetDownloadTimeoutSeconds saves that limit; the next download uses it.
func (a *SettingsPage) SetDownloadTimeoutSeconds(seconds int) error {
	return a.h.Downloads.SetTimeout(time.Duration(seconds) * time.Second)
}
