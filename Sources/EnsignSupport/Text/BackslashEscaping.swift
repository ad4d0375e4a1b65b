extension String {
    /// The text with backslashes, double quotes and line feeds escaped as `\\`, `\"` and `\n`,
    /// for the quoted strings of formats that escape only these (DOT, Prometheus label values).
    package var backslashEscaped: String {
        var escaped = ""
        for character in self {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
