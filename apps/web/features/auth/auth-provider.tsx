"use client";

import type { Profile } from "@salelink/contracts/profile";
import { useRouter } from "next/navigation";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { ApiError, api } from "@/lib/api.ts";

export interface AuthState {
  /** null while signed out, or before the first check has finished. */
  user: Profile | null;
  /** Set once the first profile call has ended, whatever its outcome (spec section 4). */
  authChecked: boolean;
  /** True between a deliberate sign-out and the next sign-in: guards must not redirect then. */
  leaving: boolean;
  refresh(): Promise<Profile | null>;
  /** Forget the user and go to `path` (logout, password change, deletion). */
  leave(path: string): void;
}

const AuthContext = createContext<AuthState | null>(null);

/** The signed-in account; GET /profile answers null for a visitor, not an error (decision 021). */
async function fetchProfile(): Promise<Profile | null> {
  try {
    return await api("/profile", {
      schema: () => import("@salelink/contracts/profile").then((m) => m.sessionProfileSchema),
    });
  } catch (err) {
    if (!(err instanceof ApiError)) console.warn("profile check failed", err);
    return null;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<Profile | null>(null);
  const [authChecked, setAuthChecked] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const router = useRouter();

  // A profile call that started before the user left must not bring the user back.
  const generation = useRef(0);
  // Only the latest call's answer counts: the start-up check (anonymous) may end after the check
  // that follows a quick sign-in, and must not sign the user out again.
  const latest = useRef(0);
  const refresh = useCallback(async () => {
    const started = generation.current;
    const call = ++latest.current;
    const profile = await fetchProfile();
    setAuthChecked(true);
    if (started !== generation.current) return null;
    if (call !== latest.current) return profile;
    setUser(profile);
    if (profile) setLeaving(false);
    return profile;
  }, []);
  const leave = useCallback(
    (path: string) => {
      generation.current += 1;
      setLeaving(true);
      setUser(null);
      router.push(path);
    },
    [router],
  );

  // The profile is fetched once when the app starts.
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const value = useMemo(
    () => ({ user, authChecked, leaving, refresh, leave }),
    [user, authChecked, leaving, refresh, leave],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error("useAuth outside AuthProvider");
  return ctx;
}
