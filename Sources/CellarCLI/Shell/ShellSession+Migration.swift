import CellarKit

/// The schema a session opened with, as ``ShellSession/openingSchema`` keeps it.
enum OpeningSchema {
    /// Not read yet: no statement has run since the database was opened.
    case unread
    /// Read before the first statement.
    case captured(SchemaCapture)
    /// It could not be read (why): the database was unreadable then.
    case unreadable(String)
}

/// `.diff` and `.migration NAME`: DDL typed in a session becomes a proved migration. Both plan with
/// CellarKit's ``SchemaPlanner`` from the schema the session opened with to the schema it has now
/// (inside its open transaction, if any), under the rules of `cellar diff` and `cellar new NAME
/// --from-schema`: renames only with `--rename`, drops only with `--allow-drop`, the plan proved on a
/// copy before it is shown or written.
extension ShellSession {
    /// Reads the schema the session opened with, once, before anything can change it.
    func captureOpeningSchema() {
        guard case .unread = openingSchema else { return }
        do {
            openingSchema = .captured(try SchemaCapture.capture(of: connection))
        } catch let error as SQLiteError {
            openingSchema = .unreadable(error.message)
        } catch {
            openingSchema = .unreadable(String(describing: error))
        }
    }

    /// `.diff [--rename OLD=NEW]… [--allow-drop]`: the plan from the schema the session opened with to
    /// the schema now.
    func showSchemaDiff(_ command: DotCommandLine) throws {
        let request = try PlanRequest(command, takesName: false)
        let change = try plannedChange(request.options)
        guard !change.up.isEmpty else {
            return writeOutput("-- no schema change since the session opened \(shown(databaseName))")
        }
        try output.write(shownKeepingLayout(change.up.sql))
    }

    /// `.migration NAME [--rename OLD=NEW]… [--allow-drop] [--timestamp]`: writes the plan as the next
    /// migration file (the plan back as its down section), then rolls the open transaction back, so
    /// that `cellar migrate` makes the change, recorded in the ledger.
    func writeMigration(_ command: DotCommandLine) throws {
        let request = try PlanRequest(command, takesName: true)
        if try connection.isReadOnly {
            throw DotCommandError(
                "'.migration' needs a database open for writing, and \(databaseName) is open read-only "
                    + "(no schema change can have been typed); nothing written")
        }
        let change = try plannedChange(request.options)
        guard !change.up.isEmpty else {
            throw DotCommandError(
                "the schema of \(databaseName) has not changed since the session opened it: no migration to write, nothing written"
            )
        }
        let down = try plan(
            from: change.current, to: change.opened,
            options: SchemaPlanner.Options(renames: SchemaRename.undoing(request.options.renames), allowsDrop: true))
        let created = try NewMigrationFile.create(
            name: request.name, contents: NewMigrationFile.text(up: change.up, down: down),
            in: configuration.migrationsDirectory, timestamped: request.isTimestamped)
        writeOutput(shown(created.path))
        if try !connection.isAutocommit {
            do {
                try connection.execute("ROLLBACK")
            } catch let error as SQLiteError {
                throw DotCommandError(
                    "wrote \(created.path), but the open transaction could not be rolled back: \(error.message)")
            }
            writeOutput(
                "rolled back the open transaction (every change made in it); `cellar migrate` applies \(shown(created.path))")
        }
        let now = try SchemaCapture.capture(of: connection)
        if case .captured(let opening) = openingSchema, now != opening {
            io.printError(
                ControlCharacterEscaping.escape(
                    "cellar: warning: \(databaseName) has these schema changes already, committed (typed outside a "
                        + "transaction): `cellar migrate` would make them again here and fail; to record the migration "
                        + "as applied here without running it: cellar baseline \(created.version)"))
        }
        // What is in the file is no longer a change of this session.
        openingSchema = .captured(now)
    }

    // MARK: - Planning

    /// The schema the session opened with and the schema now, each in an in-memory database set up as
    /// the connection is, and the proved plan from the first to the second.
    private func plannedChange(_ options: SchemaPlanner.Options) throws -> (
        up: SchemaPlan, opened: any SQLConnection, current: any SQLConnection
    ) {
        captureOpeningSchema()
        let opening: SchemaCapture
        switch openingSchema {
        case .captured(let capture): opening = capture
        case .unreadable(let message):
            throw DotCommandError("cannot read the schema \(databaseName) had when the session opened it: \(message)")
        case .unread: throw DotCommandError("the schema \(databaseName) had when the session opened it was not read")
        }
        let opened = try opening.database(like: connection)
        let current = try SchemaCapture.capture(of: connection).database(like: connection)
        return (try plan(from: opened, to: current, options: options), opened, current)
    }

    private func plan(from: any SQLConnection, to: any SQLConnection, options: SchemaPlanner.Options) throws -> SchemaPlan {
        do {
            return try SchemaPlanner(from: from, to: to, options: options).plan()
        } catch let error as SchemaPlanError {
            throw DotCommandError(SchemaSources.advice(for: error))
        }
    }
}

/// The arguments of `.diff` and `.migration`: the name (for `.migration`), `--rename OLD=NEW`
/// (repeatable, also `--rename=OLD=NEW`), `--allow-drop`, and `--timestamp` (for `.migration`).
private struct PlanRequest {
    var name = ""
    var options = SchemaPlanner.Options()
    var isTimestamped = false

    init(_ command: DotCommandLine, takesName: Bool) throws {
        let usage = DotCommandError(
            takesName
                ? "Usage: .migration NAME [--rename OLD=NEW]… [--allow-drop] [--timestamp]"
                : "Usage: .diff [--rename OLD=NEW]… [--allow-drop]")
        var names: [String] = []
        var arguments = command.arguments[...]
        while let argument = arguments.popFirst() {
            if argument == "--allow-drop" {
                options.allowsDrop = true
            } else if argument == "--timestamp", takesName {
                isTimestamped = true
            } else if argument == "--rename" || argument.hasPrefix("--rename=") {
                let text = argument == "--rename" ? arguments.popFirst() : String(argument.dropFirst("--rename=".count))
                guard let text, let rename = SchemaRename(parsing: text) else {
                    throw DotCommandError(
                        "--rename expects OLD=NEW (a table) or TABLE.OLD=NEW (a column), not '\(text ?? "")'")
                }
                options.renames.append(rename)
            } else if argument.hasPrefix("-") || !takesName {
                throw usage
            } else {
                names.append(argument)
            }
        }
        guard takesName else { return }
        guard names.count == 1 else { throw usage }
        guard NewMigrationFile.isValidName(names[0]) else {
            throw DotCommandError("'\(names[0])' is not a migration name (letters, digits, _ and - only)")
        }
        name = names[0]
    }
}
