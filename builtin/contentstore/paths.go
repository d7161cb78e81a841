package contentstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/switchboard-app/switchboard/builtin/contentstore/extract"
)

// expandHome expands a leading ~ (alone, or ~/…) to the user's home folder,
// as a shell would: a model or a user writes ~/notes/t.md.
func expandHome(path string) string {
	if path != "~" && !strings.HasPrefix(path, "~/") && !strings.HasPrefix(path, `~\`) {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path
	}
	return filepath.Join(home, path[1:])
}

// credentialPlaces are the folders and files of the home folder where keys,
// tokens and passwords are kept.
var credentialPlaces = []string{
	".ssh", ".gnupg", ".aws", filepath.Join(".config", "gcloud"), ".kube", ".docker", ".netrc", ".git-credentials", ".password-store",
	".azure", filepath.Join(".config", "gh"),
}

// credentialPlace returns the place of credentialPlaces (as ~/…) that path
// is, or is in, and with follow, the same for where its links lead; "" for
// any other path.
func credentialPlace(path string, follow bool) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	homes, paths := []string{home}, []string{path}
	if follow {
		if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
			paths = append(paths, real)
		}
		if real, err := filepath.EvalSymlinks(home); err == nil && real != home {
			homes = append(homes, real)
		}
	}
	for _, h := range homes {
		for _, p := range paths {
			for _, c := range credentialPlaces {
				if within(p, filepath.Join(h, c)) {
					return "~" + string(filepath.Separator) + c
				}
			}
		}
	}
	return ""
}

// errCredentials refuses a path in a place of credentials.
func errCredentials(path, place string) error {
	return invalid("%s is in %s, where keys, tokens and passwords are kept: the content store does not add files from there, "+
		"so that a model cannot copy secrets into a store it searches; to add such a file on purpose, copy it to another folder "+
		"and add the copy", path, place)
}

// mountSkip is the reason a folder walk does not enter dir, a mount point
// of another filesystem than the one it started on ("" to enter it).
func mountSkip(dir string) string {
	if name := extract.PseudoFS(dir); name != "" {
		return fmt.Sprintf("a mount point of %s, a pseudo filesystem (the system's live state, not documents): not entered", name)
	}
	return "a mount point of another filesystem: a folder add stays on the filesystem it starts on; add this folder by its own path"
}
