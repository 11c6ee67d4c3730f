/// Every command `cellar` has, in the order `--help` lists them.
enum CommandRegistry {
    static var commands: [any Command.Type] {
        [
            SetupCommand.self,
            MigrateCommand.self,
            RollbackCommand.self,
            StatusCommand.self,
            VerifyCommand.self,
            AcceptCommand.self,
            NewCommand.self,
            DiffCommand.self,
            SquashCommand.self,
            BaselineCommand.self,
            AdoptCommand.self,
            RedoCommand.self,
            SeedCommand.self,
            SchemaCommand.self,
            LintCommand.self,
            TestCommand.self,
            DumpCommand.self,
            RestoreCommand.self,
            CreateCommand.self,
            DropCommand.self,
            WaitCommand.self,
            RunCommand.self,
            QueryCommand.self,
            BlobCommand.self,
            ShellCommand.self,
            HelpCommand.self,
            CompletionsCommand.self,
            ManualCommand.self,
            VersionCommand.self,
        ]
    }

    /// The command named `name` (or aliased so), if any.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.names.contains(name) }
    }
}
