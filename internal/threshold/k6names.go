package threshold

import "strconv"

// k6Names are k6's names for session protocols' metrics that loadlens
// names otherwise or does not measure, each with what to write instead:
// a k6 user's threshold must say why it is refused, not only that the
// metric is unknown. They are not aliases: k6's grpc_streams counts
// streams alone, loadlens's grpc_sessions every call, unary ones too, so
// the same threshold would judge other figures.
var k6Names = map[string]string{
	"grpc_streams": "k6's grpc_streams counts streams; loadlens counts every call, unary or streaming, as " +
		"grpc_sessions (filter it by endpoint or name for one streaming method)",
	"grpc_streams_msgs_sent": "k6's grpc_streams_msgs_sent counts a stream's messages; loadlens counts every " +
		"call's messages sent as grpc_msgs_sent (a unary call's one too)",
	"grpc_streams_msgs_received": "k6's grpc_streams_msgs_received counts a stream's messages; loadlens counts " +
		"every call's messages received as grpc_msgs_received (a unary call's one too)",
	"ws_connecting": "k6's ws_connecting (the handshake alone) is not measured apart: ws_time_to_first_msg runs " +
		"from the session's intended start, handshake included, to its first message, and ws_req_duration is the whole session",
	"ws_ping": "k6's ws_ping (a ping's round trip) is not measured: ws_reply_time is the time from a message " +
		"sent to the message its until: matches",
}

// unknownMetric is the message for a metric neither built in nor the
// test's own, with what to write instead of a k6 name.
func unknownMetric(metric string, custom []Custom) string {
	if hint, ok := k6Names[metric]; ok {
		return "unknown metric " + strconv.Quote(metric) + ": " + hint
	}
	return "unknown metric " + strconv.Quote(metric) + " (known: " + knownNames(custom) + ")"
}
