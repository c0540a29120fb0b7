from generator.commands.cli import run

run()
