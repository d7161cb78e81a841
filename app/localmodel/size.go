package localmodel

import "strconv"

// Size is a model's size (a file, a download, the memory it takes) as a
// person reads it, in decimal units as download sites and file managers
// show them (1 MB is 1,000,000 bytes): "812 bytes", "25.5 MB", "397 MB",
// "1.1 GB" — one decimal under 100 of a unit, none from 100 on, each
// rounded half up. The window's formatBytes (frontend/src/components/
// LocalModels.tsx) follows the same rule, and both are held to
// testdata/sizes.json, so the CLI and the window say the same size.
func Size(n int64) string {
	if n < 1000 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	units := []string{"KB", "MB", "GB", "TB"}
	i, u := 0, int64(1000)
	for i < len(units)-1 && n >= u*1000 {
		i, u = i+1, u*1000
	}
	for {
		if n < 100*u {
			if tenths := (n*10 + u/2) / u; tenths < 1000 {
				return strconv.FormatInt(tenths/10, 10) + "." + strconv.FormatInt(tenths%10, 10) + " " + units[i]
			}
		}
		whole := (n + u/2) / u
		if whole < 1000 || i == len(units)-1 {
			return strconv.FormatInt(whole, 10) + " " + units[i]
		}
		i, u = i+1, u*1000
	}
}
