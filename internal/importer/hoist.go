package importer

import "strings"

// HoistHeaders moves the headers every request step sends alike to the
// test's headers, so each step shows only what is its own. It takes time
// linear in the headers: a recording of thousands of requests with dozens
// of headers each is common, and one crafted with thousands is possible.
func HoistHeaders(flow []Step) ([]Header, []Step) {
	var reqs []int
	for i, st := range flow {
		if st.Think == "" {
			reqs = append(reqs, i)
		}
	}
	if len(reqs) < 2 {
		return nil, flow
	}
	key := func(h Header) string { return strings.ToLower(h.Name) + "\x00" + h.Value }
	in := map[string]int{} // each of the first step's headers: how many steps send it
	for _, h := range flow[reqs[0]].Headers {
		in[key(h)] = 0
	}
	for _, i := range reqs {
		seen := map[string]bool{}
		for _, h := range flow[i].Headers {
			k := key(h)
			if n, ok := in[k]; ok && !seen[k] {
				seen[k] = true
				in[k] = n + 1
			}
		}
	}
	var common []Header
	hoisted := map[string]bool{}
	for _, h := range flow[reqs[0]].Headers {
		if k := key(h); in[k] == len(reqs) {
			common = append(common, h)
			hoisted[k] = true
		}
	}
	for _, i := range reqs {
		var keep []Header
		for _, h := range flow[i].Headers {
			if !hoisted[key(h)] {
				keep = append(keep, h)
			}
		}
		flow[i].Headers = keep
	}
	return common, flow
}
