CommandLineTool.runAsProcess(Array(CommandLine.arguments.dropFirst()))
