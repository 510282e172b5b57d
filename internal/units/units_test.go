package units

import (
	"math"
	"testing"
	"time"
)

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{3700.4, "3,700"},
		{1234567, "1,234,567"},
		{-1234.6, "-1,235"},
		{100, "100"},
		{99.96, "100"}, // rounds into the next precision, and is written whole
		{12.34, "12.3"},
		{12, "12"},
		{1.5, "1.5"},
		{1.234, "1.23"},
		{0.5, "0.5"},
		{0.0123, "0.0123"},
		{0.000123, "0.000123"}, // never an exponent
		{-0.0001, "-0.0001"},
		{-0.00001, "-0.00001"},
		{math.NaN(), "-"},
		{math.Inf(1), "-"},
	} {
		if got := Number(tc.in); got != tc.want {
			t.Errorf("Number(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCounts(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"count", Count(1234567), "1,234,567"},
		{"small count", Count(999), "999"},
		{"negative count", Count(-1000), "-1,000"},
		{"round", Round(3700.5), "3,701"},
		{"rate", Rate(3700, "req"), "3,700 req/s"},
		{"rate without unit", Rate(12.34, ""), "12.3/s"},
		{"one core", Cores(1), "1 core"},
		{"cores", Cores(2.5), "2.5 cores"},
		{"few cores", Cores(0.75), "0.75 cores"},
		{"whole multiple", Multiple(2), "2.0×"},
		{"multiple", Multiple(1.034), "1.03×"},
		{"large multiple", Multiple(246.3), "246×"},
		{"ten times", Multiple(10), "10×"},
		{"one node", CountOf(1, "node", "nodes"), "1 node"},
		{"nodes", CountOf(2, "node", "nodes"), "2 nodes"},
		{"no nodes", CountOf(0, "node", "nodes"), "0 nodes"},
		{"many VUs", CountOf(1500, "VU", "VUs"), "1,500 VUs"},
		{"one visit", Quantity(1, "visit", "visits"), "1 visit"},
		{"visits", Quantity(1.5, "visit", "visits"), "1.5 visits"},
		{"plural", Plural(3, "attempt", "attempts"), "attempts"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"},
		{400 * time.Nanosecond, "0µs"},
		{950 * time.Microsecond, "950µs"},
		{999700 * time.Nanosecond, "1.00ms"}, // rounds up into milliseconds
		{2345 * time.Microsecond, "2.35ms"},
		{9996 * time.Microsecond, "10.0ms"},
		{23450 * time.Microsecond, "23.4ms"}, // float 23.45 is a hair below: strconv rounds it down
		{235 * time.Millisecond, "235ms"},
		{999600 * time.Microsecond, "1.00s"},
		{1250 * time.Millisecond, "1.25s"},
		{59996 * time.Millisecond, "1m"},
		{65 * time.Second, "1m5s"},
		{10 * time.Minute, "10m"},
		{90 * time.Minute, "1h30m"},
		{time.Hour, "1h"},
		{-30 * time.Millisecond, "-30.0ms"},
		{math.MinInt64, "-2562047h47m16s"},
	} {
		if got := Duration(tc.in); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDurationFloats(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"seconds", DurationSeconds(0.0123), "12.3ms"},
		{"seconds NaN", DurationSeconds(math.NaN()), "-"},
		{"huge seconds", DurationSeconds(1e300), "2562047h47m16s"},
		{"millis", DurationMillis(1200), "1.20s"},
		{"sub-ms millis", DurationMillis(0.85), "850µs"},
		{"millis NaN", DurationMillis(math.NaN()), "-"},
		{"literal minutes", DurationLiteral(10 * time.Minute), "10m"},
		{"literal mixed", DurationLiteral(90 * time.Second), "1m30s"},
		{"literal fraction", DurationLiteral(1500 * time.Millisecond), "1.5s"},
		{"literal ms", DurationLiteral(250 * time.Millisecond), "250ms"},
		{"literal hours", DurationLiteral(2 * time.Hour), "2h"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestClock(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"start", Clock(0), "0:00"},
		{"seconds", Clock(12), "0:12"},
		{"minutes", Clock(75), "1:15"},
		{"hours", Clock(3723), "1:02:03"},
		{"negative", Clock(-5), "-0:05"},
		{"span", Span(12, 31), "0:12–0:31"},
		{"one-second span", Span(12, 12), "0:12"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestPercentages(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"percent", Percent(0.0123), "1.23%"},
		{"small percent", Percent(0.0005), "0.05%"},
		{"whole percent", Percent(1), "100.00%"},
		{"zero percent", Percent(0), "0.00%"},
		{"2 of 77,626 is not zero", Percent(2.0 / 77626), "<0.01%"},
		{"the smallest two decimals show", Percent(0.00005), "0.01%"},
		{"77,624 of 77,626 is not all", Percent(77624.0 / 77626), ">99.99%"},
		{"no percent", Percent(math.NaN()), "-"},
		{"share", Share(0.923), "92.3%"},
		{"whole share", Share(0.45), "45%"},
		{"small share", Share(0.0123), "1.23%"},
		{"tiny share", Share(0.0001234), "0.0123%"},
		{"zero share", Share(0), "0%"},
		{"no share", Share(math.NaN()), "-"},
		{"rise", Change(0.123), "+12.3%"},
		{"fall", Change(-0.04), "-4.0%"},
		{"no change", Change(0), "+0.0%"},
		{"tiny fall", Change(-0.0001), "+0.0%"},
		{"doubling", Change(1), "+100%"},
		{"huge rise", Change(310), "+31,000%"},
		{"points", Points(0.005), "+0.50pp"},
		{"negative points", Points(-0.0123), "-1.23pp"},
		{"interval", Interval(Change(0.012), Change(0.056)), "[+1.2%, +5.6%]"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"bytes", Bytes(512), "512 B"},
		{"kilobytes", Bytes(1234), "1.2 kB"},
		{"megabytes", Bytes(3_400_000), "3.4 MB"},
		{"rounds into the next unit", Bytes(999_960), "1.0 MB"},
		{"terabytes", Bytes(2_500_000_000_000), "2.5 TB"},
		{"byte rate", ByteRate(1_200_000), "1.2 MB/s"},
		{"MiB", Size(1 << 20), "1 MiB"},
		{"KiB", Size(64 << 10), "64 KiB"},
		{"GiB", Size(2 << 30), "2 GiB"},
		{"plain", Size(1000), "1000 B"},
		{"GiB", Size(3 << 30), "3 GiB"},
		{"KiB past a MiB", Size(1536 << 10), "1536 KiB"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestExact(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{{9.529, "9.529"}, {1500000, "1,500,000"}, {-1234.5, "-1,234.5"}, {0, "0"}} {
		if got := Exact(tc.in); got != tc.want {
			t.Errorf("Exact(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSigned(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{Rate(12.5, "req"), "+12.5 req/s"}, {Duration(-3500 * time.Microsecond), "-3.50ms"}, {Duration(0), "+0s"}, {"-", "-"},
	} {
		if got := Signed(tc.in); got != tc.want {
			t.Errorf("Signed(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		unit string
		v    float64
		want string
	}{
		{"count", 3700.4, "3,700"},
		{"number", 12.34, "12.3"},
		{"req/s", 3700, "3,700 req/s"},
		{"s", 0.00095, "950µs"},
		{"fraction", 0.923, "92.3%"},
		{"rate", 1.0 / 798, "0.13%"}, // the summary headline's precision, not Share's 0.125%
		{"cores", 1, "1 core"},
		{"second", 75, "1:15"},
		{"ratio", 2, "2.0×"},
		{"change", -0.12, "-12.0%"},
		{"s/s", 0.0005, "+30.0ms/min"},
		{"s/s", -0.0005, "-30.0ms/min"},
		{"furlongs", 1.5, "1.5"},
	} {
		if got := Of(tc.v, tc.unit); got != tc.want {
			t.Errorf("Of(%v, %q) = %q, want %q", tc.v, tc.unit, got, tc.want)
		}
	}
}
