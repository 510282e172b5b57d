package units

// Of formats a figure given with the name of its unit, as summary.json's
// findings carry them: "count", "number", "req/s", "s" (a duration in
// seconds), "fraction", "cores", "second" (of the run), "ratio" (a
// multiple), "change" (relative), "s/s" (a duration trend, shown per
// minute) and "rate" (of failures, as Percent writes the summary's). A name
// it does not know reads as a number.
func Of(v float64, unit string) string {
	switch unit {
	case "count":
		return Round(v)
	case "req/s":
		return Rate(v, "req")
	case "s":
		return DurationSeconds(v)
	case "fraction":
		return Share(v)
	case "rate":
		return Percent(v)
	case "cores":
		return Cores(v)
	case "second":
		return Clock(int(v))
	case "ratio":
		return Multiple(v)
	case "change":
		return Change(v)
	case "s/s":
		return Signed(DurationSeconds(v*60)) + "/min"
	}
	return Number(v)
}
