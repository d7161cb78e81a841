//go:build !linux || !cgo || !webkit2_41

package webkit

import "errors"

// Elsewhere (Windows' WebView2, or a Linux build without WebKitGTK 4.1)
// there is nothing to install.
func install(Settings) error { return errors.ErrUnsupported }

// webKitGTK is false: no WebKitGTK web process to tune.
const webKitGTK = false
