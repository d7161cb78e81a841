package app

import (
	"errors"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// AppDownloadView is one file of an app's ui/download-file, as the window
// asks the user about it: its safe name, type and size.
type AppDownloadView struct {
	Name     string `json:"name"`
	MIMEType string `json:"mimeType"`
	Size     int    `json:"size"`
}

// DescribeDownload reads an app's ui/download-file contents (JSON) and
// says which files it would save, under which safe names; a request past
// the limits of one request or of the app's session (AppView.Session) is
// refused before the user is asked.
func (a *Apps) DescribeDownload(session, server, contentsJSON string) ([]AppDownloadView, error) {
	ah, err := a.appsHost()
	if err != nil {
		return nil, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	files, err := ah.Download(ctx, server, []byte(contentsJSON))
	if err != nil {
		return nil, err
	}
	if err := ah.Offer(session, files); err != nil {
		return nil, err
	}
	out := make([]AppDownloadView, len(files))
	for i, f := range files {
		out[i] = AppDownloadView{Name: f.Name, MIMEType: f.MIMEType, Size: len(f.Data)}
	}
	return out, nil
}

// SaveDownload saves file index of an app's ui/download-file once the
// user agreed: the system's save dialog, in the downloads folder, offers
// the file's safe name. It returns the path written, or "" when the user
// cancelled the dialog. The file is taken from what the app's session may
// still save.
func (a *Apps) SaveDownload(session, server, contentsJSON string, index int) (string, error) {
	ah, err := a.appsHost()
	if err != nil {
		return "", err
	}
	wctx := a.wailsContext()
	if wctx == nil {
		return "", errors.New("no window to show the save dialog in")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	files, err := ah.Download(ctx, server, []byte(contentsJSON))
	if err != nil {
		return "", err
	}
	if index < 0 || index >= len(files) {
		return "", errors.New("the download has no such file")
	}
	path, err := wruntime.SaveFileDialog(wctx, wruntime.SaveDialogOptions{
		Title: "Save a file from " + server, DefaultDirectory: ah.DownloadsDir(), DefaultFilename: files[index].Name,
		CanCreateDirectories: true,
	})
	if err != nil || path == "" {
		return "", err
	}
	// What was read before the dialog is saved: the user may take longer to choose than a read may.
	if err := ah.SaveDownload(session, files[index], path); err != nil {
		return "", err
	}
	return path, nil
}
