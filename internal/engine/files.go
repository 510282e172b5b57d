package engine

// vusForFiles is how many VUs the open-file limit leaves room for: each
// VU holds at least one connection, and the process needs a margin for
// its run.db, dashboard, scrapes and logs (a 16th of the limit, at least
// 64). 0 means no limit is known.
func vusForFiles(limit int64) int64 {
	if limit <= 0 {
		return 0
	}
	return max(limit-max(64, limit/16), 1)
}
