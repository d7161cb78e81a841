package app

import (
	"time"

	"github.com/switchboard-app/switchboard/app/host"
)

// DownloadTimeoutSeconds is how long an npx, uvx or docker server's package
// download may take before its first start (Settings → Servers).
func (a *SettingsPage) DownloadTimeoutSeconds() (int, error) {
	d, err := host.DownloadsOf(a.h).Timeout()
	return int(d / time.Second), err
}

// SetDownloadTimeoutSeconds saves that limit; the next download uses it.
func (a *SettingsPage) SetDownloadTimeoutSeconds(seconds int) error {
	return host.DownloadsOf(a.h).SetTimeout(time.Duration(seconds) * time.Second)
}
