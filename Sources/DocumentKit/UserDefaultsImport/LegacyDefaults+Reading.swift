import Foundation

extension LegacyDefaults {
    /// The file's bytes, read through a read-only descriptor (the export is never written,
    /// nor are its times touched but the access time), refusing what is not a regular file
    /// or is larger than `maximumBytes`.
    package static func readFile(_ url: URL) throws -> Data {
        do {
            // Checked before opening: opening a FIFO would wait for a writer.
            let info = try SystemCall.status(url.path, failing: "cannot open", reportedAs: url.path)
            guard (info.st_mode & S_IFMT) != S_IFDIR else {
                throw DocumentKitError(.malformedInput, "is a folder, not a defaults export")
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw DocumentKitError(.malformedInput, "is not a regular file")
            }
            let file = try OpenFile.forReading(url.path)
            guard try file.status().st_size <= maximumBytes else {
                throw DocumentKitError(
                    .malformedInput, "is larger than \(maximumBytes >> 20) MiB, the limit for a defaults export")
            }
            return try file.readAll(limit: maximumBytes)
        } catch var error as DocumentKitError {
            // An input that cannot be read is missing input (EX_NOINPUT), whatever the
            // reason (`system` calls EACCES an output's error); and the file is named as
            // the caller named it.
            if error.code == .cannotCreateOutput { error.code = .missingInput }
            error.path = nil
            throw error
        }
    }

    /// What `parseDomain` returns: the format, every key, and the values of the known keys.
    package struct Domain {
        package var format: Format
        package var keys: [String]
        package var known: [String: LegacyDefaultsValue]
    }

    /// Recognises the format by the first bytes (`bplist`; `<` or `{` after an optional
    /// byte order mark and white space) and parses the top-level dictionary. Only the
    /// values of known keys are converted: the rest of a domain is never looked into.
    package static func parseDomain(_ data: Data) throws -> Domain {
        guard let format = recognizeFormat(of: data) else {
            throw DocumentKitError(.malformedInput, "is neither a property list (XML or binary) nor a JSON object")
        }
        if format == .json {
            guard case .object(let members) = try JSONValue.parse(data) else {
                // Unreachable: the text starts with `{`, and the parser accepts one value.
                throw DocumentKitError(.malformedInput, "expected a JSON object of defaults")
            }
            return Domain(
                format: format, keys: members.keys.sorted(),
                known: knownValues { members[$0].map(LegacyDefaultsValue.init(json:)) })
        }
        let object = try propertyList(data, format: format)
        guard let dictionary = object as? [String: Any] else {
            if object is [AnyHashable: Any] {
                throw DocumentKitError(.malformedInput, "the top-level dictionary has a key that is not a string")
            }
            throw DocumentKitError(
                .malformedInput,
                """
                expected a dictionary of defaults at the top level, found \
                \(LegacyDefaultsValue(propertyList: object).found)
                """
            )
        }
        return Domain(
            format: format, keys: dictionary.keys.sorted(),
            known: knownValues { dictionary[$0].map(LegacyDefaultsValue.init(propertyList:)) })
    }

    private static func knownValues(_ value: (String) -> LegacyDefaultsValue?) -> [String: LegacyDefaultsValue] {
        var known: [String: LegacyDefaultsValue] = [:]
        for key in Key.allCases { known[key.rawValue] = value(key.rawValue) }
        return known
    }

    /// The format the first bytes say, or `nil` when they say none of ours.
    package static func recognizeFormat(of data: Data) -> Format? {
        if data.starts(with: Array("bplist".utf8)) { return .binary }
        var index = data.startIndex
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        while index < data.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(data[index]) { index += 1 }
        guard index < data.endIndex else { return nil }
        switch data[index] {
        case UInt8(ascii: "<"): return .xml
        case UInt8(ascii: "{"): return .json
        default: return nil
        }
    }

    /// Parses a property list with Foundation, which limits nesting itself (in both
    /// formats) and resolves no external entities. A text Foundation reads as another
    /// kind of property list than its first bytes say (an XML list it cannot parse is
    /// tried as an old-style one) is refused as the kind it claimed to be.
    private static func propertyList(_ data: Data, format: Format) throws -> Any {
        var parsed = PropertyListSerialization.PropertyListFormat.xml
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: &parsed)
        } catch {
            throw invalidPropertyList(
                format, reason: (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String)
        }
        guard parsed == (format == .binary ? .binary : .xml) else { throw invalidPropertyList(format, reason: nil) }
        return object
    }

    private static func invalidPropertyList(_ format: Format, reason: String?) -> DocumentKitError {
        guard format == .xml, let reason, !reason.isEmpty else {
            return DocumentKitError(.malformedInput, "not a valid \(format == .xml ? "XML" : "binary") property list")
        }
        // Foundation's reason for a binary list is its old-style parser's, which says nothing.
        return DocumentKitError(
            .malformedInput, "not a valid XML property list: \(reason.prefix(1).lowercased())\(reason.dropFirst())")
    }
}
