"""``python -m forgec`` runs the command-line interface."""

from forgec.cli import main

if __name__ == "__main__":
    main()
