package log

//func Error(err error) slog.Attr {
//	return slog.Any("error", err)
//}
//
//func Message(message interface{}) slog.Attr {
//	return slog.Any("message", message)
//}
