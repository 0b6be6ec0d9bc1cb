; Windows installer additions (electron-builder.config.cjs, nsis.include). Meeting manifests are plain
; JSON, so Tributary adds itself to the "Open with" list of .json files (OpenWithProgids) instead of
; becoming their default program, as electron-builder's fileAssociations would.

!macro customInstall
  WriteRegStr SHCTX "Software\Classes\Tributary.MeetingManifest" "" "Meeting manifest"
  WriteRegStr SHCTX "Software\Classes\Tributary.MeetingManifest\DefaultIcon" "" "$appExe,0"
  WriteRegStr SHCTX "Software\Classes\Tributary.MeetingManifest\shell\open\command" "" '"$appExe" "%1"'
  WriteRegStr SHCTX "Software\Classes\.json\OpenWithProgids" "Tributary.MeetingManifest" ""
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend

!macro customUnInstall
  DeleteRegValue SHCTX "Software\Classes\.json\OpenWithProgids" "Tributary.MeetingManifest"
  DeleteRegKey SHCTX "Software\Classes\Tributary.MeetingManifest"
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
!macroend
