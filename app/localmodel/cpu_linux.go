package localmodel

import (
	"os"
	"strconv"
)

// cpuBackend is the CPU backend the process pid loaded (cpuBackendIn).
func cpuBackend(pid int) (variant, file string) {
	maps, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/maps")
	if err != nil {
		return "", ""
	}
	return cpuBackendIn(string(maps))
}
