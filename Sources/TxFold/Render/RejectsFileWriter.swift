/// Writes the rejects file of `--rejects`: one JSON object per line, per rejected record.
///
/// ```
/// {"file":"dump.jsonl","line":12,"reason":"invalid-timestamp","field":"creationTime","message":"Invalid timestamp '2019-02-30T10:00:00' in field 'creationTime' (dump.jsonl, line 12).","raw":"{…}"}
/// ```
///
/// `reason` is a stable code (`RejectReason`); `field` is `null` when no one
/// field is at fault; `raw` is the record cut at 4 KiB. The file must be valid
/// JSON lines even when a record is not valid UTF-8, so bytes that are not
/// UTF-8 appear in `raw` as U+FFFD; `reason` says `invalid-utf8` for them.
package enum RejectsFileWriter {
  /// Appends one rejection as a JSON line.
  package static func append(_ rejection: RecordRejection, to out: inout [UInt8]) {
    out.append(contentsOf: #"{"file":"#.utf8)
    JSONEscaping.appendString(rejection.file, to: &out)
    out.append(contentsOf: #","line":"#.utf8)
    out.append(contentsOf: String(rejection.line).utf8)
    out.append(contentsOf: #","reason":"#.utf8)
    JSONEscaping.appendString(rejection.reason.code, to: &out)
    out.append(contentsOf: #","field":"#.utf8)
    if let field = rejection.field {
      JSONEscaping.appendString(field, to: &out)
    } else {
      out.append(contentsOf: "null".utf8)
    }
    out.append(contentsOf: #","message":"#.utf8)
    JSONEscaping.appendString(rejection.message, to: &out)
    out.append(contentsOf: #","raw":"#.utf8)
    JSONEscaping.appendString(String(decoding: rejection.raw, as: UTF8.self), to: &out)
    out.append(contentsOf: "}\n".utf8)
  }
}
