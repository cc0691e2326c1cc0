import { useId } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { RegisterSchema, type Register, type RegisterInput } from '#common/schemas/auth.js';
import { Button } from '#client/components/ui/button.tsx';
import { FormAlert } from '#client/components/ui/form-alert.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useRegister } from '../api/register';

type RegisterFormProps = { onSuccess: () => void; onSwitchToLogin: () => void };

export function RegisterForm({ onSuccess, onSwitchToLogin }: RegisterFormProps) {
  const registerUser = useRegister();
  const alertId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RegisterInput, unknown, Register>({
    resolver: zodResolver(RegisterSchema),
    defaultValues: { username: '', phoneNumber: '', email: '', password: '' },
  });

  const onSubmit = handleSubmit((values) =>
    registerUser.mutate(
      // spec 5: the form sends username, phoneNumber, password, bio and avatarUrl; the last two start empty.
      // The API also takes an e-mail (docs/product-decisions.md 'Accounts'), sent only when one was typed.
      {
        username: values.username,
        phoneNumber: values.phoneNumber ?? '',
        password: values.password,
        bio: '',
        avatarUrl: '',
        ...(values.email ? { email: values.email } : {}),
      },
      { onSuccess },
    ),
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-5"
      aria-label="Register"
      aria-describedby={registerUser.error ? alertId : undefined}
    >
      <FormAlert
        id={alertId}
        title="Registration failed"
        message={registerUser.error ? errorMessage(registerUser.error) : null}
      />
      <FormField label="Username" error={errors.username?.message}>
        <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...register('username')} />
      </FormField>
      <FormField
        label="Phone number"
        error={errors.phoneNumber?.message}
        hint="Optional. At least 10 digits."
      >
        <Input type="tel" autoComplete="tel" inputMode="tel" {...register('phoneNumber')} />
      </FormField>
      <FormField label="Email" error={errors.email?.message} hint="Optional. Shown in your account menu.">
        <Input
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          {...register('email')}
        />
      </FormField>
      <FormField label="Password" error={errors.password?.message} hint="At least 6 characters.">
        <Input type="password" autoComplete="new-password" {...register('password')} />
      </FormField>
      <Button type="submit" size="lg" className="w-full" disabled={registerUser.isPending}>
        {registerUser.isPending ? (
          <>
            <LoaderCircle aria-hidden className="animate-spin" />
            Creating account...
          </>
        ) : (
          // Wraps on a 320 px phone instead of widening the page (buttons are nowrap).
          <span className="text-center leading-tight whitespace-normal">Create Account Capper/Bettor</span>
        )}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{' '}
        <Button variant="link" onClick={onSwitchToLogin}>
          Sign in here
        </Button>
      </p>
    </form>
  );
}
