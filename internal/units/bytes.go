package units

import "strconv"

// Bytes formats a byte count in SI units, as k6 does: "512 B", "1.2 kB",
// "3.4 MB", up to TB.
func Bytes(n int64) string {
	f := float64(n)
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	if f < 1000 {
		return sign + strconv.FormatFloat(f, 'f', 0, 64) + " B"
	}
	for _, u := range []string{"kB", "MB", "GB"} {
		f /= 1000
		if f < 999.95 {
			return sign + strconv.FormatFloat(f, 'f', 1, 64) + " " + u
		}
	}
	return sign + strconv.FormatFloat(f/1000, 'f', 1, 64) + " TB"
}

// ByteRate formats bytes per second: "1.2 MB/s".
func ByteRate(perSecond float64) string { return Bytes(int64(perSecond+0.5)) + "/s" }

// Size formats a size limit the way it is usually written in a test file,
// exactly: "1 MiB", "64 KiB", "1000 B".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}
