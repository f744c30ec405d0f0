package download

import "golang.org/x/sys/unix"

// freeSpace reports the bytes an unprivileged user may still write in dir's
// file system.
func freeSpace(dir string) (int64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * st.Bsize, true
}
