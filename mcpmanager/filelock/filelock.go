// Package filelock takes an exclusive lock on an open file without
// waiting: flock on Unix, LockFileEx on Windows. The lock belongs to the
// open file (the handle), so two opens in one process exclude each other
// too, and it goes when the file is closed or its process ends, crash
// included. The config's writers (mcpmanager/config) and a model's
// download (app/localmodel/download) use it to take turns across
// processes.
//
//	f, _ := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
//	if ok, err := filelock.TryLock(f); ok && err == nil {
//		defer filelock.Unlock(f)
//		// … the work only one process may do at a time
//	}
package filelock
