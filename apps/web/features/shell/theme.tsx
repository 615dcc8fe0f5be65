"use client";

import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";

export type ThemePreference = "light" | "dark" | "system";
export const THEME_KEY = "theme";

/**
 * Runs in <head> before the first paint, so the stored preference applies without a flash.
 * Kept as a string: it must not wait for React.
 */
export const themeScript = `(function(){try{var p=localStorage.getItem("${THEME_KEY}");if(p!=="light"&&p!=="dark")p="system";var d=p==="dark"||(p==="system"&&window.matchMedia("(prefers-color-scheme: dark)").matches);var e=document.documentElement;e.dataset.theme=d?"dark":"light";e.dataset.themePreference=p;e.style.colorScheme=d?"dark":"light";}catch(_){}})();`;

interface ThemeState {
  preference: ThemePreference;
  resolved: "light" | "dark";
  setPreference(p: ThemePreference): void;
}

const ThemeContext = createContext<ThemeState | null>(null);

const systemDark = () => window.matchMedia("(prefers-color-scheme: dark)").matches;

function apply(preference: ThemePreference): "light" | "dark" {
  const resolved = preference === "dark" || (preference === "system" && systemDark()) ? "dark" : "light";
  const root = document.documentElement;
  root.dataset.theme = resolved;
  root.dataset.themePreference = preference;
  root.style.colorScheme = resolved;
  return resolved;
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [preference, setPref] = useState<ThemePreference>("system");
  const [resolved, setResolved] = useState<"light" | "dark">("light");

  useEffect(() => {
    const stored = document.documentElement.dataset.themePreference;
    const initial: ThemePreference = stored === "light" || stored === "dark" ? stored : "system";
    setPref(initial);
    setResolved(apply(initial));
  }, []);

  useEffect(() => {
    if (preference !== "system") return;
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const onChange = () => setResolved(apply("system"));
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, [preference]);

  const setPreference = useCallback((p: ThemePreference) => {
    try {
      localStorage.setItem(THEME_KEY, p);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    setPref(p);
    setResolved(apply(p));
  }, []);

  const value = useMemo(
    () => ({ preference, resolved, setPreference }),
    [preference, resolved, setPreference],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const ctx = useContext(ThemeContext);
  if (!ctx) throw new Error("useTheme outside ThemeProvider");
  return ctx;
}
