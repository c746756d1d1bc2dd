# bash completion for dlock(1); installed as
# share/bash-completion/completions/dlock.

_dlock() {
  local cur prev words cword
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  local logging="-q --quiet -v --verbose -vv"
  local i

  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "run status list release elect leader schema --help --version" -- "$cur"))
    return
  fi

  case ${COMP_WORDS[1]} in
    run | elect)
      # After "--", or once NAME is given, the words are COMMAND's.
      for ((i = 2; i < COMP_CWORD; i++)); do
        if [ "${COMP_WORDS[i]}" = "--" ]; then
          if [ $((i + 1)) -eq "$COMP_CWORD" ]; then
            COMPREPLY=($(compgen -c -- "$cur"))
          else
            COMPREPLY=($(compgen -f -- "$cur"))
          fi
          return
        fi
      done
      case $prev in
        --url | --wait | --lease | --grace | --hold-after-success | --max-attempts | --permits | \
          -E | --conflict-exit-code | --value)
          return ;;
      esac
      if [ "${COMP_WORDS[1]}" = elect ]; then
        COMPREPLY=($(compgen -W "--url --value --lease --grace $logging --help --" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "--url --wait -n --nonblock -E --conflict-exit-code --lease --grace
          --hold-after-success --max-attempts --permits $logging --help --" -- "$cur"))
      fi
      ;;
    status | list)
      [ "$prev" = "--url" ] && return
      COMPREPLY=($(compgen -W "--url --json $logging --help" -- "$cur"))
      ;;
    leader)
      [ "$prev" = "--url" ] && return
      COMPREPLY=($(compgen -W "--url --json --watch $logging --help" -- "$cur"))
      ;;
    release)
      [ "$prev" = "--url" ] && return
      COMPREPLY=($(compgen -W "--force --url $logging --help" -- "$cur"))
      ;;
    schema)
      [ "$prev" = "--url" ] && return
      COMPREPLY=($(compgen -W "--url $logging --help" -- "$cur"))
      ;;
  esac
}

complete -F _dlock dlock
